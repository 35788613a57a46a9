/**
 * Calls to the backend's user, wallet, search and catalogue services (docs/internal-api.md).
 *
 * Zones, contests and market search answer the same to everyone: `shared: true` (no
 * X-Acting-User; identical calls in flight share one backend call). Poll search is not shared:
 * a poll item's tallies follow the acting user. User-scoped reads never are.
 */
import type { BoundUpstream } from '../bound.ts';
import * as I from '../internal-api.ts';

const enc = encodeURIComponent;
type Kind = 'MARKET' | 'POLL';

export const getProfile = (up: BoundUpstream, userId: string) =>
  up.call({ path: `/internal/users/${enc(userId)}/profile`, schema: I.UserProfile });

export const listFavorites = (up: BoundUpstream, userId: string, q: { offset: number; limit: number }) =>
  up.call({ path: `/internal/users/${enc(userId)}/favorites`, query: { ...q }, schema: I.FavoritePage });

export const listOwnCreated = (up: BoundUpstream, userId: string, q: { kind: Kind; offset: number; limit: number }) =>
  up.call({ path: `/internal/users/${enc(userId)}/created`, query: { ...q }, schema: I.CreatedPage });

export const listCreatedByHandle = (up: BoundUpstream, handle: string, q: { kind: Kind; offset: number; limit: number }) =>
  up.call({ path: `/internal/users/by-handle/${enc(handle)}/created`, query: { ...q }, schema: I.CreatedPage });

export const listLedger = (up: BoundUpstream, userId: string, q: { currency: 'COIN' | 'RUBY'; offset: number; limit: number }) =>
  up.call({ path: `/internal/wallet/${enc(userId)}/ledger`, query: { ...q }, schema: I.LedgerPage });

export const search = (up: BoundUpstream, q: { kw: string; kind: Kind; pricingModel?: I.PricingModel; offset: number; limit: number }) =>
  up.call({ path: '/internal/search', query: { ...q }, schema: I.SearchPage, shared: q.kind === 'MARKET' });

export const listZones = (up: BoundUpstream) => up.call({ path: '/internal/zones', schema: I.ZoneList, shared: true });

export const getContest = (up: BoundUpstream, contestId: string) =>
  up.call({ path: `/internal/contests/${enc(contestId)}`, schema: I.Contest, shared: true });
