export type OcrErrorCode = 'OCR_UNAVAILABLE' | 'OCR_TIMEOUT' | 'OCR_INPUT_REJECTED' | 'OCR_FAILED';

/** Why text could not be read. No HTTP here: the caller decides what the check answers. */
export class OcrError extends Error {
  constructor(
    readonly code: OcrErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The tesseract binary is missing or cannot be executed. */
export class OcrUnavailableError extends OcrError {
  constructor(message: string) {
    super('OCR_UNAVAILABLE', message);
  }
}

/** Tesseract ran past its deadline and was killed. */
export class OcrTimeoutError extends OcrError {
  constructor(readonly timeoutMs: number) {
    super('OCR_TIMEOUT', `tesseract timed out after ${timeoutMs} ms and was killed`);
  }
}
