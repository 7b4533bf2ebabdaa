export { type Disposable, toDisposable, noopDisposable, DisposableStore } from './disposable.js';
export { Emitter, type Event, type Listener, type ListenerErrorHandler } from './emitter.js';
export { type Clock, type Deadline, systemClock, pendingSystemClockTimers, ManualClock, after, deadline } from './clock.js';
