/** Browsing aids: category channels, zones and contests (docs/contract/resources.md#catalog). */
import { z } from 'zod';
import { Count, FullListOf, ResourceUrl, Timestamp, Url, Uuid } from './common.ts';
import { ContestStatus } from './enums.ts';

export const Category = z
  .strictObject({
    id: Uuid.meta({ description: 'Usable as `category_id` on GET /topics.' }),
    name: z.string().meta({ description: 'Localised.' }),
    description: z.string().meta({ description: 'Localised.' }),
    url: ResourceUrl,
  })
  .meta({ description: 'A category channel.' });
export type Category = z.infer<typeof Category>;

export const CategoryList = FullListOf(Category).meta({ description: 'Every category channel.' });
export type CategoryList = z.infer<typeof CategoryList>;

export const Zone = z
  .strictObject({
    slug: z.string().min(1).meta({ description: 'Usable as `zone` on GET /topics.' }),
    name: z.string(),
    cover_image_url: Url.nullable().meta({ description: 'Cover image; null when the zone has none.' }),
    members_count: Count,
    topics_count: Count,
    active_users_count: Count,
    url: ResourceUrl,
  })
  .meta({ description: 'A zone (community).' });
export type Zone = z.infer<typeof Zone>;

export const ZoneList = FullListOf(Zone).meta({ description: 'Every zone.' });
export type ZoneList = z.infer<typeof ZoneList>;

export const ContestOption = z
  .strictObject({
    id: z.string().min(1),
    title: z.string(),
    entries_count: Count,
    is_correct: z.boolean().meta({ description: 'True for the correct option once settled; false before.' }),
  })
  .meta({ description: 'An option of a contest.' });
export type ContestOption = z.infer<typeof ContestOption>;

const contestFields = {
  id: Uuid,
  title: z.string(),
  description: z.string(),
  status: ContestStatus,
  start_time: Timestamp,
  deadline: Timestamp,
  options: z.array(ContestOption),
  entries_count: Count,
  url: ResourceUrl,
};

/** A contest as it would appear in a listing (no listing endpoint exists yet). */
export const ContestSummary = z.strictObject(contestFields).meta({ description: 'A contest.' });
export type ContestSummary = z.infer<typeof ContestSummary>;

/** GET /contests/{id}. */
export const Contest = z
  .strictObject({
    ...contestFields,
    settled_at: Timestamp.optional().meta({ description: 'Present once the contest is settled.' }),
    void_reason: z.string().optional().meta({ description: 'Present when the contest is voided.' }),
  })
  .meta({ description: 'A contest in full.' });
export type Contest = z.infer<typeof Contest>;
