/**
 * What every patch in this folder shares. A patch replaces a dependency's function with one of
 * ours only when the dependency's source is the one ours was written from: the SHA-256 of that
 * source is kept beside the replacement, and the replacement carries the function it replaced,
 * so the check still reads the dependency's own source once the patch is in place.
 */
import { createHash } from 'node:crypto';

/** Whether a patch is in place, and if not, why (logged at start-up). */
export type PatchResult = { applied: true } | { applied: false; reason: string };

/** SHA-256 of a function's (or a class's) source text. */
export function fingerprint(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

/** The property under which a replacement keeps what it replaced. */
const REPLACED = Symbol.for('openpm.patches.replaced');
export type Replaceable = object & { [REPLACED]?: object };

/** The dependency's own function behind a replacement of ours, or the function itself. */
export function originalOf(part: Replaceable): object {
  return part[REPLACED] ?? part;
}

/** Marks a replacement with the original it stands for. */
export function markReplacement(replacement: object, original: object): void {
  Object.defineProperty(replacement, REPLACED, { value: original });
}

export function isReplacement(part: Replaceable): boolean {
  return REPLACED in part;
}
