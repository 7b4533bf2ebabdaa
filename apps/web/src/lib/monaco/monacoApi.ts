import type * as Monaco from 'monaco-editor';

/** The Monaco namespace as the app uses it; everything else takes it as a value (tests pass fakes). */
export type MonacoApi = typeof Monaco;
