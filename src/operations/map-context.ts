import type { MapContext } from '../../mappers/context.ts';
import type { Language } from '../i18n/languages.ts';
import type { OperationContext } from './operation.ts';

/**
 * What the pure mappers need from a request: its language (or another, such as the language of
 * the preview an execution confirms) and the app's web address.
 */
export function mapContextOf(ctx: Pick<OperationContext, 'lang' | 'services'>, lang: Language = ctx.lang): MapContext {
  return { lang, webBaseUrl: ctx.services.config.PUBLIC_WEB_URL };
}
