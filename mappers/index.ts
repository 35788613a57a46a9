/** Pure functions from the backend's internal shapes to the open contract's shapes. */
export { urls, type MapContext, type TopicKind } from './context.ts';
export {
  dec4,
  dec6,
  dec4OrNull,
  decFixed,
  decRatio,
  decProduct,
  decDifference,
  toBig,
  type DecimalSource,
  type RoundingMode,
} from './decimal.ts';
export { toTimestamp, toTimestampOrUndefined } from './time.ts';
export * from './enums.ts';
export { externalUrl, externalUrls } from './links.ts';
export { toList, toFullList, type List, type FullList } from './lists.ts';
export { excerpt, EXCERPT_LENGTH } from './text.ts';
export { mapUserRef } from './users.ts';
export * from './topics.ts';
export * from './comments.ts';
export * from './history.ts';
export * from './catalog.ts';
export * from './owner.ts';
export * from './writes.ts';
export * from './previews.ts';
