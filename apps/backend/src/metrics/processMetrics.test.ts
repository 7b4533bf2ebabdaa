import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerProcessMetrics } from './processMetrics.js';

describe('process metrics', () => {
  it('counts active resources by type and reads the clock timers at each scrape', async () => {
    const registry = new Registry();
    let resources = ['TCPServerWrap', 'TCPSocketWrap', 'TCPSocketWrap', 'Timeout'];
    let timers = 7;
    registerProcessMetrics(registry, { activeResources: () => resources, clockTimers: () => timers });
    const text = await registry.metrics();
    expect(text).toContain('kandev_process_active_resources{type="TCPServerWrap"} 1\n');
    expect(text).toContain('kandev_process_active_resources{type="TCPSocketWrap"} 2\n');
    expect(text).toContain('kandev_process_active_resources{type="Timeout"} 1\n');
    expect(text).toContain('# TYPE kandev_process_clock_timers gauge\nkandev_process_clock_timers 7\n');
    // The sockets closed and a timer was disposed: the next scrape shows it, with no stale series.
    resources = ['TCPServerWrap'];
    timers = 6;
    const again = await registry.metrics();
    expect(again).toContain('kandev_process_active_resources{type="TCPServerWrap"} 1\n');
    expect(again).not.toContain('TCPSocketWrap');
    expect(again).not.toContain('type="Timeout"');
    expect(again).toContain('kandev_process_clock_timers 6\n');
  });

  it("reads this process's own resources: a ref'd timer shows up, and goes when cleared", async () => {
    const registry = new Registry();
    registerProcessMetrics(registry, { activeResources: () => process.getActiveResourcesInfo(), clockTimers: () => 0 });
    const timeouts = async () => Number(/^kandev_process_active_resources\{type="Timeout"\} (\d+)$/m.exec(await registry.metrics())?.[1] ?? 0);
    const before = await timeouts();
    const held = setTimeout(() => undefined, 60_000);
    expect(await timeouts()).toBe(before + 1);
    clearTimeout(held);
    expect(await timeouts()).toBe(before);
  });
});
