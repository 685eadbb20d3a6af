import { Injectable } from '@nestjs/common';
import { LocalTextClassifier, LOCAL_TEXT_SIGNAL_FOLDING, SUPPORTED_LANGUAGES } from '@cds/providers';
import { evaluate, foldSignals, ParsedPolicy } from '@cds/policy';
import { ScoreMap } from '@cds/events';
import { invalid } from '@cds/errors';

export const LOCAL_PROVIDER = 'local';

/** The local text provider and the policy evaluation over its signals. The model is
 * loaded once at start. */
@Injectable()
export class TextModeration {
  private readonly classifier = LocalTextClassifier.load();
  private readonly languages = new Set<string>(SUPPORTED_LANGUAGES);

  assertLanguage(language: string): void {
    if (!this.languages.has(language)) {
      throw invalid('UNSUPPORTED_LANGUAGE', 'Unsupported language', `language must be one of ${[...this.languages].join(', ')} (got "${language}")`);
    }
  }

  signals(text: string, language: string): ScoreMap {
    return this.classifier.score(text, language);
  }

  /** Evaluate a policy over provider signals (live checks and replays alike). */
  decide(policy: ParsedPolicy, signals: ScoreMap, provider = LOCAL_PROVIDER): ReturnType<typeof evaluate> {
    return evaluate(policy, foldSignals(signals, LOCAL_TEXT_SIGNAL_FOLDING), provider);
  }
}
