import { nestingRefusal, type ParsedFrame } from '@kandev/protocol';

type TooDeep = Extract<ParsedFrame, { kind: 'too_deep' }>;
type Message = ReturnType<typeof nestingRefusal>;

/** What becomes of a message refused for its nesting (MAX_JSON_DEPTH), on either edge. */
export type TooDeepOutcome =
  /** A request: answered at once by this hop with the refusal; it never takes a pending slot. */
  | { kind: 'request'; reply: Message }
  /** A response: the peer waiting for it gets the refusal in its place, under the same id. */
  | { kind: 'response'; forward: Message }
  /** A notification (or no usable id): dropped; the caller logs it. */
  | { kind: 'notification' };

export function tooDeepOutcome(frame: TooDeep): TooDeepOutcome {
  if (frame.method !== undefined && frame.id !== undefined && frame.id !== null) return { kind: 'request', reply: nestingRefusal(frame.id) };
  if (frame.method === undefined && frame.id !== undefined && frame.id !== null) return { kind: 'response', forward: nestingRefusal(frame.id) };
  return { kind: 'notification' };
}
