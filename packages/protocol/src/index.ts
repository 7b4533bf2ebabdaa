export * from './api.js';
export * from './bounds.js';
export * from './closeCodes.js';
export * from './framing.js';
export * from './frames.js';
export * from './languages.js';
export * from './settings.js';
export * from './uri.js';
