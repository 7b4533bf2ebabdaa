/** Bounds of one search, whichever engine runs it. */
export interface SearchLimits {
  maxHits: number;
  /** Files larger than this are skipped unread. */
  maxFileBytes: number;
  /** The walker stops (truncated) after this many files. */
  maxFilesVisited: number;
}

/** The JSON answer keeps the documented 200 hits; a stream may show more as they arrive. */
export const JSON_SEARCH_LIMITS: SearchLimits = { maxHits: 200, maxFileBytes: 1024 * 1024, maxFilesVisited: 50_000 };
export const STREAM_SEARCH_LIMITS: SearchLimits = { ...JSON_SEARCH_LIMITS, maxHits: 2_000 };

/** Never searched, by either engine: version-control internals and installed dependencies. */
export const SKIPPED_DIRS = ['.git', 'node_modules'] as const;
