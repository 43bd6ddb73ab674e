import type { Source, Usage } from '../../contract/turn.js';
import type { ModelAttachments } from '../model/model.js';
import { countWords } from '../model/words.js';
import type { TurnRecord } from '../state/records.js';
import type { MockStore } from '../state/store.js';

/**
 * What a turn used, as the mock counts it: its sources (the attached files) and its usage (words for
 * tokens).
 */

/**
 * One source per attached file (2.4): the files of the attached libraries, then the attached files, each
 * once. Scores fall in steps of 0.05 from 0.95, so that the order is the ranking.
 */
export function sourcesOf(store: MockStore, attachments: ModelAttachments): Source[] {
  const files: Array<{ id: number; libraryId: number }> = [];
  const add = (file: { id: number; libraryId: number } | undefined) => {
    if (file && !files.some((known) => known.id === file.id)) files.push(file);
  };
  for (const library of attachments.workspace_ids) {
    for (const file of store.fixtures.files) if (file.libraryId === library) add(file);
  }
  for (const id of attachments.file_ids) add(store.fixtures.files.find((file) => file.id === id));
  return files.map((file, index) => ({
    workspace_id: file.libraryId,
    file_id: file.id,
    score: Math.max(0.05, Math.round((0.95 - index * 0.05) * 100) / 100),
  }));
}

/**
 * The usage of a finished turn (2.4): words of the prompt and of the answer as tokens, no reasoning
 * tokens, the model's code, provider `mock`.
 */
export function usageOf(store: MockStore, turn: TurnRecord): Usage {
  const prompt = countWords(turn.prompt);
  const completion = countWords(turn.content);
  const model = store.fixtures.models.find((item) => item.id === turn.model_id);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    reasoning_tokens: 0,
    model: model?.code ?? 'unknown',
    provider: 'mock',
  };
}
