/**
 * Active and last-ended work-done progress, by token, so a resuming browser reaches ready with
 * current progress. The tracker and its bounds (64 tokens, 4 KiB texts) are packages/protocol's,
 * shared with the web client; re-exported here for the broker's modules.
 */
export { MAX_PROGRESS_TEXT_CHARS, MAX_TRACKED_PROGRESS_TOKENS, ProgressTracker } from '@kandev/protocol';
