import type { Disposable } from '@kandev/kit';

/**
 * Monaco cancels work of its own (a diff being computed when its diff editor is disposed or gets
 * new models) by rejecting the work's promise with its cancellation error, and in those places
 * nothing awaits the promise: each diff view closed or reopened put an "Uncaught (in promise)
 * Canceled" in the page's console (three in one run of the live-workspace browser file). A
 * cancellation is not a failure (VS Code's own error handler ignores these), so the page drops
 * exactly that rejection and lets every other one through.
 */
export function ignoreMonacoCancellations(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): Disposable {
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isMonacoCancellation(event.reason)) event.preventDefault();
  };
  target.addEventListener('unhandledrejection', onRejection);
  return { dispose: () => target.removeEventListener('unhandledrejection', onRejection) };
}

/** Monaco's CancellationError: an Error whose name and message are both "Canceled". */
export function isMonacoCancellation(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled';
}
