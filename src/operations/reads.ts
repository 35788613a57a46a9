/** The read operations (docs/contract/reads.md#read-operations), in the order of the MCP tool list. */
import { getContest } from './catalog/get-contest.ts';
import { listTopicCategories } from './catalog/list-topic-categories.ts';
import { listZones } from './catalog/list-zones.ts';
import { getMyProfile } from './me/get-my-profile.ts';
import {
  listMyBackedOpinions,
  listMyCoinLedger,
  listMyOpinions,
  listMyPositions,
  listMyRubyLedger,
  listMyTopics,
  listMyWatchlist,
} from './me/owner-lists.ts';
import type { Operation } from './operation.ts';
import { searchTopics } from './search/search-topics.ts';
import { getPriceHistory } from './topics/get-price-history.ts';
import { getTopic } from './topics/get-topic.ts';
import { listTopicOpinions } from './topics/list-topic-opinions.ts';
import { listTopics } from './topics/list-topics.ts';
import { listUserTopics } from './users/list-user-topics.ts';

export const READ_OPERATIONS: readonly Operation[] = [
  searchTopics,
  listTopics,
  listTopicCategories,
  getTopic,
  listTopicOpinions,
  getMyProfile,
  listMyPositions,
  listMyOpinions,
  listMyBackedOpinions,
  listMyWatchlist,
  listMyCoinLedger,
  listMyRubyLedger,
  // REST only
  listMyTopics,
  getPriceHistory,
  listZones,
  getContest,
  listUserTopics,
] as readonly Operation[];
