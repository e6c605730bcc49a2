import type { Locality, QuestionDefinition, RequirementDefinition } from '../catalog/catalog.schema.js';
import type { PlannedTask } from './engine.types.js';

/** Facts that set due dates rather than decide whether a requirement applies. */
const DATED_FACTS = new Set<string>(['registration_date', 'operations_start_date', 'registration_number_digit']);

/** A question task; for a locality (the `in-locality` question) one per locality, its id the period key. */
export function questionTask(
  question: QuestionDefinition,
  code: string,
  regionName: string,
  definitions: RequirementDefinition[],
  locality?: Locality,
): PlannedTask {
  const place = locality ? `${locality.name}, ${regionName}` : regionName;
  return {
    kind: 'question',
    definitionId: question.id,
    regionCode: code,
    periodKey: locality?.id ?? 'once',
    periodStartDate: null,
    periodEndDate: null,
    dueDate: null,
    dueDateBasis: null,
    criteriaMet:
      definitions.length > 0
        ? [
            {
              key: 'unknown-fact',
              // A date answers "when", not "whether": say what it dates.
              reason: `${DATED_FACTS.has(question.fact) ? 'Needed to set the due dates of' : 'Needed to decide'}: ${definitions.map((d) => d.title).join('; ')}`,
              data: {
                region: code,
                fact: question.fact,
                requirements: definitions.map((d) => d.id),
                ...(locality && { locality: locality.id }),
              },
            },
          ]
        : [
            {
              key: 'answered',
              reason: `Answered for ${place}`,
              data: { region: code, fact: question.fact, ...(locality && { locality: locality.id }) },
            },
          ],
    blockedBy: [],
  };
}
