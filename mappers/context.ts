/**
 * What every mapper needs besides its input: the caller's language and the app's web address,
 * and the one place that knows the app's page paths (docs/contract/resources.md#resource-urls: every resource carries a
 * human-visitable `url`). docs/conventions.md lists the same patterns.
 */
import type { Language } from '../src/i18n/languages.ts';

export type MapContext = { lang: Language; webBaseUrl: string };

/**
 * Joins path segments onto the base, each percent-encoded (handles are user input). A lone
 * surrogate, which JSON can carry, is made well-formed first: encodeURIComponent throws on it.
 */
function page(ctx: MapContext, ...segments: string[]): string {
  const base = ctx.webBaseUrl.replace(/\/+$/, '');
  return `${base}/${segments.map((s) => encodeURIComponent(s.toWellFormed())).join('/')}`;
}

export type TopicKind = 'prediction' | 'poll';

export const urls = {
  /** Share page of a prediction. */
  prediction: (ctx: MapContext, id: string) => page(ctx, 'predictions', id),
  /** Share page of a poll (a different page from predictions). */
  poll: (ctx: MapContext, id: string) => page(ctx, 'polls', id),
  topic: (ctx: MapContext, kind: TopicKind, id: string) => (kind === 'prediction' ? urls.prediction(ctx, id) : urls.poll(ctx, id)),
  /** Public profile; handles are shown without `@`. */
  user: (ctx: MapContext, handle: string) => page(ctx, 'u', handle),
  /** An opinion on a prediction. */
  opinion: (ctx: MapContext, topicId: string, opinionId: string) => page(ctx, 'predictions', topicId, 'opinions', opinionId),
  /** A comment on a poll. */
  pollComment: (ctx: MapContext, topicId: string, commentId: string) => page(ctx, 'polls', topicId, 'comments', commentId),
  /** A comment of either kind of topic. */
  comment: (ctx: MapContext, kind: TopicKind, topicId: string, commentId: string) =>
    kind === 'prediction' ? urls.opinion(ctx, topicId, commentId) : urls.pollComment(ctx, topicId, commentId),
  category: (ctx: MapContext, id: string) => page(ctx, 'categories', id),
  zone: (ctx: MapContext, slug: string) => page(ctx, 'zones', slug),
  contest: (ctx: MapContext, id: string) => page(ctx, 'contests', id),
  /** Positions and orders are shown to their owner on the prediction's page. */
  position: (ctx: MapContext, topicId: string) => urls.prediction(ctx, topicId),
  /** The owner's wallet history of one currency. */
  wallet: (ctx: MapContext, currency: 'coin' | 'ruby') => page(ctx, 'me', 'wallet', currency === 'coin' ? 'coins' : 'rubies'),
} as const;
