// A plpgsql function the gateway calls, whose one living definition is a module of this folder. Migrations created
// its first versions (and create the tables and types it names); from now on only its module changes, and
// installFunctions (install-functions.ts) puts the definition in place after the migrations, on every start.

export interface LivingFunction {
  /** The function's name, in the gateway's schema. */
  name: string;
  /** Its parameters as declared and as PostgreSQL prints them (`pg_get_function_identity_arguments`): "batch json". */
  parameters: string;
  /** Its return type: a change of it needs a migration that drops the function first. */
  returns: string;
  /**
   * Raised by one with every change of `body`: a database that holds a higher revision (a newer release started
   * first, or a rollback) keeps it, so two releases running side by side never take turns replacing each other's.
   */
  revision: number;
  /** The plpgsql text between the dollar quotes (PostgreSQL keeps it as is: `pg_proc.prosrc`). */
  body: string;
}
