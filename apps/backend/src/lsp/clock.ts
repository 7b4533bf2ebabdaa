/** The clock lives at the backend's root (../clock.ts) so sessions/ can use it without importing lsp/. */
export { ManualClock, systemClock, type Clock } from '../clock.js';
