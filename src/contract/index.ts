/** The open contract's shapes (docs/contract/README.md): one source of truth for every surface. */
export * from './common.ts';
export * from './enums.ts';
export * from './users.ts';
export * from './topics.ts';
export * from './comments.ts';
export * from './history.ts';
export * from './catalog.ts';
export * from './owner.ts';
export * from './writes.ts';
