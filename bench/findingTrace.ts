/**
 * Where the findings bench's time goes (BENCH_FINDINGS_TRACE=1): the page's language frames on its
 * own clock, from the press on the file's row to the frame that drew its Problems entry. Each
 * message the page sends or receives on a language socket is written down with its time, so a
 * cold session prints open -> file content -> socket -> initialize -> didOpen -> the editor's own
 * requests -> first diagnostics -> entry drawn, as offsets from the press.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { FindingTimes } from './findingTimer.js';

/** One event the page recorded, ms on its clock. */
interface TraceEvent {
  t: number;
  what: string;
}

/** Records every language frame of the context's pages (call before the page opens). */
export async function traceLanguageFrames(context: BrowserContext): Promise<void> {
  // A string: the bench runs under tsx, whose named-function helper does not exist in the page.
  await context.addInitScript(`(() => {
    const events = (window.__findingTrace = []);
    const pending = new Map();
    const Native = window.WebSocket;
    function label(dir, text) {
      let m;
      try { m = JSON.parse(text); } catch { return undefined; }
      if (typeof m !== 'object' || m === null) return undefined;
      if (typeof m.status === 'string') return dir + ' status ' + m.status;
      if (typeof m.control === 'string') return dir + ' control ' + m.control;
      if (typeof m.method === 'string') {
        if (m.id !== undefined) pending.set(dir + ':' + m.id, m.method);
        const uri = m.params && m.params.uri;
        const count = m.params && Array.isArray(m.params.diagnostics) ? ' (' + m.params.diagnostics.length + ' for ' + String(uri).split('/').pop() + ')' : '';
        return dir + ' ' + m.method + (m.id !== undefined ? ' #' + m.id : '') + count;
      }
      const asked = pending.get((dir === 'in' ? 'out' : 'in') + ':' + m.id);
      const items = m.result && Array.isArray(m.result.items) ? ' (' + m.result.items.length + ' items)' : '';
      return dir + ' answer #' + m.id + ' ' + (asked ?? '?') + (m.error ? ' error ' + m.error.code : '') + items;
    }
    function record(dir, text) {
      const what = typeof text === 'string' ? label(dir, text) : undefined;
      if (what) events.push({ t: performance.now(), what });
    }
    // The page's main thread busy for 50 ms or more at a time (nothing else can be drawn meanwhile).
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) events.push({ t: e.startTime, what: 'busy ' + e.duration.toFixed(0) + ' ms (long task)' });
    }).observe({ type: 'longtask', buffered: true });
    window.WebSocket = class extends Native {
      constructor(url, protocols) {
        super(url, protocols);
        const lsp = String(url).includes('/lsp/');
        if (!lsp) return;
        events.push({ t: performance.now(), what: 'socket ' + String(url).split('?')[1] });
        this.addEventListener('open', () => events.push({ t: performance.now(), what: 'socket open' }));
        this.addEventListener('message', (e) => record('in', e.data));
      }
      send(data) {
        if (String(this.url).includes('/lsp/')) record('out', data);
        return super.send(data);
      }
    };
  })()`);
}

/** Also records each change of Monaco's markers (the Problems panel recomputes on it); call once the page has loaded. */
export async function traceMarkers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as any;
    if (w.__findingMarkers) return;
    w.__findingMarkers = w.__kandev?.monaco?.editor.onDidChangeMarkers(() => w.__findingTrace?.push({ t: performance.now(), what: 'markers changed' }));
  });
}

/** The recorded frames between the press and the drawn entry (read from findingTimer.ts's times), as offsets, one a line. */
export async function findingTimeline(page: Page): Promise<string> {
  const { events, times, resources } = await page.evaluate(() => {
    const w = window as any;
    const res = performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.endsWith('/file'))
      .flatMap((e) => [
        { t: e.startTime, what: 'file content asked' },
        { t: (e as PerformanceResourceTiming).responseEnd, what: 'file content received' },
      ]);
    return {
      events: (w.__findingTrace ?? []) as TraceEvent[],
      times: w.__findingTimes as FindingTimes,
      resources: res,
    };
  });
  const press = times.press ?? 0;
  const drawn = times.drawn ?? Infinity;
  const all = [...events, ...resources, { t: times.inserted ?? drawn, what: 'Problems entry in the page' }, { t: drawn, what: 'Problems entry drawn' }]
    .filter((e) => e.t >= press && e.t <= drawn)
    .sort((a, b) => a.t - b.t);
  return all.map((e) => `${`+${(e.t - press).toFixed(0)}`.padStart(7)} ms  ${e.what}`).join('\n');
}
