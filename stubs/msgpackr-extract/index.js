// msgpackr loads this inside try/catch and falls back to pure JavaScript when it throws.
throw new Error("msgpackr-extract is not installed: msgpackr uses its JavaScript path");
