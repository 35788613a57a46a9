/** The authenticated key owner, attached to every request that passed authentication. */
export type Scope = 'read' | 'write';

export interface Caller {
  userId: string;
  keyId: string;
  /** Hex SHA-256 of the raw key: the only form of the key kept after authentication. */
  keyHash: string;
  scopes: ReadonlySet<Scope>;
}

export function hasScope(caller: Caller, scope: Scope): boolean {
  return caller.scopes.has(scope);
}
