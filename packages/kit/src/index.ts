export { type Disposable, toDisposable, noopDisposable, DisposableStore } from './disposable.js';
export { Emitter, type Event, type Listener, type ListenerErrorHandler } from './emitter.js';
export { type Clock, systemClock, ManualClock, after } from './clock.js';
