import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, mergeMap, NEVER, of, type Observable } from 'rxjs';

/** Whether the phone hangs: it still takes and does every request, and no answer ever leaves it. */
export class PhoneHang {
  constructor(public hanging: boolean) {}
}

/**
 * A phone whose app took the request and never answered (its Wi-Fi lost the way back, the app
 * froze mid-answer): the request is done, a message queued and sent, but while the phone hangs
 * the answer, success or error alike, is withheld for good; the client can only give up waiting.
 */
@Injectable()
export class PhoneHangInterceptor implements NestInterceptor {
  constructor(private readonly phone: PhoneHang) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((answer) => (this.phone.hanging ? NEVER : of(answer))),
      catchError((error: unknown) => {
        if (this.phone.hanging) return NEVER;
        throw error;
      }),
    );
  }
}
