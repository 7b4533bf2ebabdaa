import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './test/support/slowestFirst.js';

// One config, three projects: unit tests sit next to their sources, integration tests drive the
// real processes over the wire, browser tests drive Debian's Chromium against the real stack.
//
// Integration and browser files mostly wait on other processes (language servers starting,
// Chromium painting, a backend restarting), so `npm test` runs several at a time (four integration
// files, two browser files: KANDEV_TEST_LANE=parallel) and then the files that must not share the
// machine with many others (KANDEV_TEST_LANE=serial), one file per project at a time, `npm test`
// running the two projects' serial lanes side by side: those that measure memory or pacing, the
// soak, the Docker suites (one dockerd, heavy on two cores) and the adding-a-language walk-through
// (it builds a whole copy of the product). Without a lane (a person running one file) every file
// runs alone, as before.
const serialFiles = [
  'test/integration/soak-smoke.test.ts',
  'test/integration/faults-backpressure.test.ts',
  'test/integration/faults-fuzz.test.ts',
  'test/integration/large-save.test.ts',
  'test/integration/docker-*.test.ts',
  'test/integration/*-docker.test.ts',
  'test/e2e/idle-requests.test.ts',
  // Paced by the broker's real 2 s request deadline, and mostly waiting on it (21 core-s in 43 s
  // alone): in the serial phase it fills the browser lane, which ended 54 s before the integration
  // lane in a clean run while the machine was a quarter idle, instead of sharing a busy one.
  'test/e2e/request-failures-fake.test.ts',
  'test/e2e/large-files.test.ts',
  'test/e2e/adding-a-language.test.ts',
  'test/e2e/docker-*.test.ts',
  'test/e2e/*-docker.test.ts',
];
const unitFiles = [
  'packages/*/src/**/*.test.ts',
  'bench/*.test.ts',
  'apps/*/src/**/*.test.{ts,tsx}',
  'test/fixtures/**/*.test.ts',
  'test/support/*.test.ts',
  'scripts/*.test.ts',
];
// vi.mock of a built-in only takes where the module graph is fresh; a signal goes to a process.
// The watcher's file checks this process's children, which threads of other files would share.
const isolatedUnitFiles = [
  'apps/backend/src/security/accessGate.test.ts',
  'packages/node-transport/src/debug/heapProbe.test.ts',
  'apps/agentctl/src/watch/nativeWatcher.test.ts',
];
const lane = process.env.KANDEV_TEST_LANE;
const parallel = lane === 'parallel';

function laneFiles(glob: string): { include: string[]; exclude: string[] } {
  const mine = serialFiles.filter((file) => file.startsWith(glob.slice(0, glob.indexOf('**'))));
  if (lane === 'serial') return { include: mine, exclude: [] };
  if (lane === 'parallel') return { include: [glob], exclude: mine };
  return { include: [glob], exclude: [] };
}

/**
 * Files at once in the parallel lane. Integration files spend most of their time waiting on the
 * processes they start (servers initializing, a backend restarting, timers): two at a time left
 * the machine idle more than half of their phase (45 % busy, measured from /proc/stat across a
 * clean-clone run), so they run four at a time. Browser files keep two: Chromium drawing keeps
 * both cores busy. KANDEV_TEST_WORKERS overrides both (measuring another count).
 */
const workersOverride = Number(process.env.KANDEV_TEST_WORKERS) || undefined;
/**
 * Files of these suites share their worker processes (`isolate: false`): a fresh process per file
 * imported Playwright, the support modules and the file's graph again each time, about a second
 * of a core per browser file (Vitest's own "import" time: 60 s over the 69 browser files of the
 * parallel lane). No file here mocks a module or leaves global state behind; each starts and stops
 * its own stacks, servers and browser contexts.
 */
const processSuite = (workers: number) => ({
  fileParallelism: parallel,
  maxWorkers: parallel ? (workersOverride ?? workers) : 1,
  isolate: false,
  sequence: { sequencer: SlowestFirstSequencer },
});

export default defineConfig({
  test: {
    projects: [
      // Unit files share worker threads and their module cache (no isolation per file): importing
      // each file's graph afresh took five times longer than the tests themselves. The few files
      // that replace a built-in module or signal their own process run isolated in processes of
      // their own ('unit-isolated'); `--project 'unit*'` runs both.
      {
        test: {
          name: 'unit',
          include: unitFiles,
          exclude: [...isolatedUnitFiles, '**/node_modules/**'],
          pool: 'threads',
          isolate: false,
          testTimeout: 20_000,
        },
      },
      { test: { name: 'unit-isolated', include: isolatedUnitFiles, pool: 'forks', testTimeout: 20_000 } },
      { test: { name: 'integration', ...laneFiles('test/integration/**/*.test.ts'), testTimeout: 120_000, hookTimeout: 180_000, ...processSuite(4) } },
      {
        test: {
          name: 'e2e',
          ...laneFiles('test/e2e/**/*.test.ts'),
          // One Chromium for the run; every file gets fresh browser contexts (support/browser.ts).
          globalSetup: ['test/support/chromiumServer.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // A poll that names no timeout waits up to 10 s, not Vitest's 1 s: a dialog that takes
          // the row's name as it settles took longer than 1 s on a loaded machine, and the dialog
          // left open then failed every later test of its file. A poll ends at its first success.
          expect: { poll: { timeout: 10_000 } },
          ...processSuite(2),
        },
      },
    ],
  },
});
