import type { ApiError, ErrorType } from '@/lib/core/errors';

// The one place an ApiError becomes the error body of /docs#errors: what every /v1 refusal sends.

export type ErrorBody = {
  error: { type: ErrorType; code: string; message: string; param?: string; request_id: string };
};

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param !== undefined ? { param: error.param } : {}),
      request_id: requestId,
    },
  };
}
