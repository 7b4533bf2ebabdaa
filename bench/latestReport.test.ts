import { describe, expect, it } from 'vitest';
import { mergeLatest, readSections, type SectionReport } from './latestReport.js';

const report = (name: string, at: string, figure: string): SectionReport => ({
  name,
  at,
  machine: 'Node v20, 2 CPUs, load average 1.00 2.00 3.00 as it started',
  body: `### ${name} figures\n\n\`\`\`\n${figure}\n\`\`\``,
});

describe('latest.md sections', () => {
  it('a run replaces only its own section, keeps the replaced figures as "previous" with their date, and leaves the others whole', () => {
    const first = mergeLatest(undefined, [report('relay', '2026-12-05T10:00Z', 'relay 1.40x'), report('typing', '2026-12-05T11:00Z', 'typing 0.9x')]);
    const second = mergeLatest(first, [report('relay', '2026-12-06T03:00Z', 'relay 1.05x')]);
    const sections = readSections(second);
    expect([...sections.keys()]).toEqual(['relay', 'typing']);
    expect(sections.get('typing')).toBe(readSections(first).get('typing'));
    const relay = sections.get('relay')!;
    expect(relay).toContain('## relay, 2026-12-06T03:00Z');
    expect(relay).toContain('relay 1.05x');
    expect(relay).toContain('### previous: 2026-12-05T10:00Z');
    expect(relay.indexOf('relay 1.05x')).toBeLessThan(relay.indexOf('relay 1.40x'));
    expect(relay).toContain('#### relay figures');
  });

  it('keeps one previous result, not every older one', () => {
    let latest = mergeLatest(undefined, [report('relay', 't1', 'figure one')]);
    latest = mergeLatest(latest, [report('relay', 't2', 'figure two')]);
    latest = mergeLatest(latest, [report('relay', 't3', 'figure three')]);
    const relay = readSections(latest).get('relay')!;
    expect(relay).toContain('figure three');
    expect(relay).toContain('### previous: t2');
    expect(relay).toContain('figure two');
    expect(relay).not.toContain('figure one');
  });

  it('a new bench is added after the existing sections', () => {
    const latest = mergeLatest(mergeLatest(undefined, [report('typing', 't1', 'a')]), [report('findings', 't2', 'b')]);
    expect([...readSections(latest).keys()]).toEqual(['typing', 'findings']);
  });
});
