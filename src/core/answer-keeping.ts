// A door that keeps its answers (the Responses door's stored responses) hands the pipeline this: what the answer
// object shows of the keeping, and who receives the final object once it is complete, on either lane.

export interface AnswerKeeping {
  /**
   * Fields the answer object shows (`previous_response_id`, `store`); its `id` is the generation id on both lanes,
   * the id the answer is kept under.
   */
  fields: Readonly<Record<string, unknown>>;
  /**
   * The final answer object as the client is sent it (reasoning with its encrypted content, so a later turn can give
   * any provider its state back). Called at most once, after the answer is complete; it never throws.
   */
  final(answer: Record<string, unknown>): void;
}
