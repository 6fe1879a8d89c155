/** The few pino methods the LLM scorer logs with, so tests and the Action can pass their own. */
export interface LlmLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
  debug: (obj: object, msg?: string) => void;
}

export const noopLogger: LlmLogger = { info() {}, warn() {}, error() {}, debug() {} };
