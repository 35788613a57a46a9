import type { MapContext } from '../../mappers/context.ts';
import type { OperationContext } from './operation.ts';

/** What the pure mappers need from a request: its language and the app's web address. */
export function mapContextOf(ctx: Pick<OperationContext, 'lang' | 'services'>): MapContext {
  return { lang: ctx.lang, webBaseUrl: ctx.services.config.PUBLIC_WEB_URL };
}
