// Step 4, composed once: every path that reaches a model (a generation on either lane, a response-cache read and its
// hit, embeddings, token counting) is admitted here, by the same rules in the same order (admission-rules.ts). A path
// says what it asks (its candidates, the tokens it counts against the per-minute limits, whether it takes from the
// free-model allowance and what it may spend); the rules decide, and a refusal after the rate step carries the key's
// rate state, as an admitted request does.
import { withRateReport } from '../../limits/admit-rate.js';
import type {
  AdmissionAsk,
  AdmissionParts,
  AdmissionRule,
  AdmissionState,
  AdmissionStep,
  Admitted,
  Candidate,
} from './admission-ask.js';
import { ADMISSION_RULES } from './admission-rules.js';

/** The admission step of the given rules, run in their order. */
export function composeAdmission(rules: readonly AdmissionRule[] = ADMISSION_RULES): AdmissionStep {
  return async (parts, ask) => {
    const state: AdmissionState<(typeof ask.candidates)[number]> = {
      ask,
      candidates: [...ask.candidates],
      rate: ask.requestCounted ?? {},
    };
    try {
      for (const rule of rules) {
        const pending = rule(parts, state);
        if (pending) await pending;
      }
    } catch (err) {
      throw withRateReport(err, state.rate);
    }
    return { candidates: state.candidates, admission: state.admission, rate: state.rate };
  };
}

/** Admits `ask` through the step composed once for the whole gateway (server.ts). */
export function admit<T extends Candidate>(parts: AdmissionParts, ask: AdmissionAsk<T>): Promise<Admitted<T>> {
  return parts.admission(parts, ask);
}
