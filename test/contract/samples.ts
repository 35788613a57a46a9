/** Hand-written, valid examples of contract resources: the base that tests mutate into bad ones. */
import type * as c from '../../src/contract/index.ts';

const U = (n: string) => `00000000-0000-4000-8000-${n.padStart(12, '0')}`;
const TS = '2026-01-01T00:00:00.000Z';
const WEB = 'https://app.example.com';

export const userRef: c.UserRef = {
  id: U('a11c'),
  handle: 'alice',
  nickname: 'Alice',
  avatar_url: null,
  account_type: 'user',
  url: `${WEB}/u/alice`,
};

const cardBase = {
  id: U('f001'),
  title: 'Will it rain?',
  created_at: TS,
  end_time: '2026-02-01T00:00:00.000Z',
  comments_count: 3,
  favorites_count: 0,
  creator: userRef,
  moderation_status: 'approved' as const,
};

export const predictionCard: c.PredictionCard = {
  ...cardBase,
  type: 'prediction',
  status: 'open',
  url: `${WEB}/predictions/${U('f001')}`,
  options: [
    { id: U('f0011'), name: 'Yes', probability: '0.6180', is_winner: false },
    { id: U('f0012'), name: 'No', probability: '0.3820', is_winner: false },
  ],
  total_volume: '0.3000',
  traders_count: 4,
  mechanism: 'v21_lmsr',
  zone: 'tech',
};

export const pollCard: c.PollCard = {
  ...cardBase,
  id: U('b001'),
  type: 'poll',
  status: 'open',
  url: `${WEB}/polls/${U('b001')}`,
  options: [
    { id: '5001', name: 'North', probability: null, is_winner: false, votes_count: null },
    { id: '5002', name: 'South', probability: null, is_winner: false, votes_count: null },
  ],
  voters_count: 3,
  total_stake: '0.3000',
  votes_visible: false,
};

export const predictionDetail: c.PredictionDetail = {
  ...predictionCard,
  options: predictionCard.options.map((o) => ({ ...o, implied_price: o.probability })),
  description: 'Rain at the central station.',
  image_urls: ['https://cdn.example.com/1.jpg'],
  category: { id: U('ca701'), name: 'Politics' },
  ref: null,
  stake_rules: { min_coins: 10, max_coins: 1000, default_coins: 50, market_depth: '14.4270', rules_version: 'v2.1' },
  ruby_boost: { multiplier: '1.5000', starts_at: TS, ends_at: TS },
};

export const pollDetail: c.PollDetail = {
  ...pollCard,
  description: '',
  image_urls: [],
  resolved_at: TS,
  category: { id: U('ca701'), name: 'Politics' },
  ref: { type: 'forward', url: 'https://news.example.com/1' },
};

export const comment: c.Comment = {
  id: '9001',
  author: userRef,
  content: 'Hello',
  created_at: TS,
  like_count: 0,
  reply_count: 0,
  is_creator_comment: false,
  author_position: { label: 'voter', option_name: 'North' },
  url: `${WEB}/polls/${U('b001')}/comments/9001`,
};

export const myProfile: c.MyProfile = {
  ...userRef,
  coins: '10000.0000',
  gems: '0.3000',
  rubies: '0.0001',
  sapphires: '0.0000',
  created_at: TS,
};

export const position: c.Position = {
  id: '770001',
  topic_id: U('f001'),
  topic_title: 'Will it rain?',
  option_id: U('f0011'),
  option_label: 'Yes',
  stake_coins: '100.0000',
  units: '158.4963',
  avg_price: '0.630930',
  ruby_multiplier: '1.0000',
  payout_if_correct_rubies: '158.4963',
  status: 'pending',
  sold: false,
  sold_rubies: null,
  won: null,
  payout_rubies: null,
  created_at: TS,
  url: `${WEB}/predictions/${U('f001')}`,
};

export const ownerOpinion: c.OwnerOpinion = {
  id: U('e101'),
  topic_id: U('f001'),
  topic_title: 'Will it rain?',
  content: 'Yes it will.',
  side_option_id: U('f0011'),
  side_option_label: 'Yes',
  reply_to: null,
  backer_count: 2,
  ruby_payback: '0.3000',
  sapphire_payback: '0.3000',
  created_at: TS,
  url: `${WEB}/predictions/${U('f001')}/opinions/${U('e101')}`,
};

export const backedOpinion: c.BackedOpinion = {
  id: '660001',
  opinion_id: U('e001'),
  opinion_excerpt: 'It will rain',
  author: userRef,
  topic_id: U('f001'),
  topic_title: 'Will it rain?',
  seq: 2,
  price_coins: '0.3000',
  ruby_total: '0.0000',
  sapphire_total: '0.0000',
  created_at: TS,
  url: `${WEB}/predictions/${U('f001')}/opinions/${U('e001')}`,
};

export const ledgerEntry: c.LedgerEntry = {
  id: '2000001',
  currency: 'ruby',
  type: 'sapphire_conversion',
  amount: '-11.7000',
  balance_after: '11.7000',
  topic_id: null,
  created_at: TS,
  url: `${WEB}/me/wallet/rubies`,
};

export const contest: c.Contest = {
  id: U('c004'),
  title: 'Contest',
  description: 'Pick the winner.',
  status: 'settled',
  start_time: TS,
  deadline: TS,
  options: [{ id: 'c1', title: 'Team A', entries_count: 10, is_correct: true }],
  entries_count: 10,
  url: `${WEB}/contests/${U('c004')}`,
  settled_at: TS,
};

export const orderSummary: c.OrderSummary = {
  topic_title: 'Will it rain?',
  option_label: 'Yes',
  stake_coins: '50.0000',
  balance_before: '10000.0000',
  balance_after: '9950.0000',
  price_now: '0.6180',
  price_after: '0.6414',
  payout_if_correct_rubies: '118.6852',
  ruby_multiplier: '1.5000',
  avg_price: '0.631920',
  close_time: TS,
  mechanism: 'v21_lmsr',
};

export const orderPreview: c.OrderPreview = {
  can_place: true,
  summary: orderSummary,
  confirm_token: 'tok_abc',
  expires_at: TS,
};

export const opinionPreview: c.OpinionPreview = {
  can_publish: false,
  summary: {
    topic_title: 'Will it rain?',
    fee_coins: '0.3000',
    balance_after: '100.0000',
    side_option_label: '',
    content_preview: 'Hi',
    reply_to: null,
  },
  reason: 'NO_POSITION',
};

export const backPreview: c.BackPreview = {
  can_back: true,
  summary: {
    topic_title: 'Will it rain?',
    opinion_excerpt: 'It will',
    author: userRef,
    backer_count: 1,
    my_seq_if_now: 2,
    price_coins: '0.3000',
    balance_before: '10.0000',
    balance_after: '9.7000',
    max_relay_payback_rubies: '0.0000',
    max_relay_payback_sapphires: '0.0000',
    close_time: TS,
  },
  confirm_token: 'tok_abc',
  expires_at: TS,
};

export const order: c.Order = {
  id: '880001',
  topic_id: U('f001'),
  option_id: U('f0011'),
  option_label: 'Yes',
  stake_coins: '50.0000',
  units: '79.1235',
  avg_price: '0.631920',
  ruby_multiplier: '1.5000',
  payout_if_correct_rubies: '118.6852',
  balance_after: '9950.0000',
  created_at: TS,
  url: `${WEB}/predictions/${U('f001')}`,
  replayed: false,
};

export const back: c.Back = {
  id: '660001',
  opinion_id: U('e001'),
  topic_id: U('f001'),
  seq: 2,
  price_coins: '0.3000',
  balance_after: '9949.7000',
  max_relay_payback_rubies: '2.0001',
  max_relay_payback_sapphires: '2.0001',
  created_at: TS,
  url: `${WEB}/predictions/${U('f001')}/opinions/${U('e001')}`,
  replayed: true,
};
