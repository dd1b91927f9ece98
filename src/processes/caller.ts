import type { Caller } from '../commands/context.js';

/**
 * The caller of a timer's commands: its kind and key as the correlation id, so each event a
 * run writes names the step that wrote it, and a run repeated after a crash names the same one.
 */
export const timerCaller = (t: { kind: string; key: string }): Caller => ({ correlationId: `${t.kind}:${t.key}` });
