import { TaskScorerError } from "../core/errors.js";

/** The database cannot be reached, locked or migrated: the service cannot keep its records. */
export class StorageError extends TaskScorerError {
  constructor(message: string) {
    super("storage_unavailable", message);
  }
}
