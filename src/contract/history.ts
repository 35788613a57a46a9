/** Probability history of a prediction (docs/contract/resources.md#price-history). */
import { z } from 'zod';
import { Dec4, FullListOf, Timestamp } from './common.ts';

export const OptionProbability = z
  .strictObject({
    option_id: z.string().min(1),
    probability: Dec4.meta({ description: 'Probability of the option at that time, 0..1.' }),
  })
  .meta({ description: "One option's probability at an instant." });

export const PricePoint = z
  .strictObject({ timestamp: Timestamp, probabilities: z.array(OptionProbability) })
  .meta({ description: 'Probabilities of every option at one instant.' });
export type PricePoint = z.infer<typeof PricePoint>;

/** Unpaginated: oldest point first. */
export const PriceHistory = FullListOf(PricePoint).meta({ description: 'Probability history, oldest point first.' });
export type PriceHistory = z.infer<typeof PriceHistory>;
