/**
 * Calls to the backend's prediction service (docs/internal-api.md).
 *
 * `shared: true` marks the public reads whose answer does not depend on who asks: they go
 * without X-Acting-User and identical ones in flight together share one backend call
 * (UpstreamClient). Market detail, lists, price history and opinion lists qualify: the only
 * viewer-dependent case the backend has there is the creator of a BLOCKED market still seeing
 * its history and opinions, and the gateway answers 404 for a blocked market to everyone,
 * creator included, before it asks for either. Holdings, opinion detail (relay state "as seen
 * by the acting user") and everything user-scoped are not shared.
 */
import type { z } from 'zod';
import { written, type BoundUpstream } from '../bound.ts';
import * as I from '../internal-api.ts';

const enc = encodeURIComponent;

export interface MarketListQuery {
  state?: I.MarketState;
  sort?: z.infer<typeof I.MarketSort>;
  zone?: string;
  categoryId?: string;
  pricingModel?: I.PricingModel;
  offset: number;
  limit: number;
}

export const listMarkets = (up: BoundUpstream, q: MarketListQuery) =>
  up.call({ path: '/internal/prediction/markets', query: { ...q }, schema: I.MarketPage, shared: true });

export const getMarket = (up: BoundUpstream, marketId: string) =>
  up.call({ path: `/internal/prediction/markets/${enc(marketId)}`, schema: I.MarketDetail, shared: true });

export const getPriceHistory = (up: BoundUpstream, marketId: string, range: 'DAY' | 'WEEK' | 'ALL') =>
  up.call({
    path: `/internal/prediction/markets/${enc(marketId)}/price-history`,
    query: { range },
    schema: I.PriceHistory,
    shared: true,
  });

export const listMarketOpinions = (up: BoundUpstream, marketId: string, q: { before?: string; limit: number }) =>
  up.call({
    path: `/internal/prediction/markets/${enc(marketId)}/opinions`,
    query: { rootOnly: 1, before: q.before, limit: q.limit },
    schema: I.OpinionPage,
    shared: true,
  });

export const listCategories = (up: BoundUpstream) =>
  up.call({ path: '/internal/prediction/categories', schema: I.CategoryList, shared: true });

export const quote = (up: BoundUpstream, marketId: string, body: z.infer<typeof I.QuoteRequest>) =>
  up.call({ method: 'POST', path: `/internal/prediction/markets/${enc(marketId)}/quote`, body, schema: I.Quote });

export const placeOrder = (up: BoundUpstream, body: z.infer<typeof I.PlaceOrderRequest>, idempotencyKey: string) =>
  written(up, { method: 'POST', path: '/internal/prediction/orders', body, idempotencyKey, schema: I.PlacedOrder });

export const listHoldings = (up: BoundUpstream, userId: string, q: { marketId?: string; offset: number; limit: number }) =>
  up.call({ path: `/internal/prediction/users/${enc(userId)}/holdings`, query: { ...q }, schema: I.HoldingPage });

export const getOpinion = (up: BoundUpstream, opinionId: string) =>
  up.call({ path: `/internal/prediction/opinions/${enc(opinionId)}`, schema: I.OpinionDetail });

export const publishOpinion = (
  up: BoundUpstream,
  marketId: string,
  body: z.infer<typeof I.PublishOpinionRequest>,
  idempotencyKey: string,
) =>
  written(up, {
    method: 'POST',
    path: `/internal/prediction/markets/${enc(marketId)}/opinions`,
    body,
    idempotencyKey,
    schema: I.PublishedOpinion,
  });

export const backOpinion = (up: BoundUpstream, opinionId: string, body: z.infer<typeof I.BackRequest>, idempotencyKey: string) =>
  written(up, {
    method: 'POST',
    path: `/internal/prediction/opinions/${enc(opinionId)}/backs`,
    body,
    idempotencyKey,
    schema: I.PlacedBack,
  });

export const listOwnOpinions = (up: BoundUpstream, userId: string, q: { offset: number; limit: number }) =>
  up.call({ path: `/internal/prediction/users/${enc(userId)}/opinions`, query: { ...q }, schema: I.OwnOpinionPage });

export const listBacks = (up: BoundUpstream, userId: string, q: { offset: number; limit: number }) =>
  up.call({ path: `/internal/prediction/users/${enc(userId)}/backs`, query: { ...q }, schema: I.BackRecordPage });
