import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { ContractExceptionFilter } from './contract-exception.filter.js';

describe(ContractExceptionFilter.name, () => {
  const sut = new ContractExceptionFilter();

  it('passes domain errors on as their contract body', () => {
    expect(sut.toBody(new DomainError('phone_disabled', 'phone 3 is disabled'))).toEqual({ error: 'phone_disabled', detail: 'phone 3 is disabled' });
  });

  it("never repeats the framework's message, which can quote the URL and its query string", () => {
    const body = sut.toBody(new NotFoundException('Cannot GET /smsapi/nope?api_key=smsq_key_secret'));
    expect(body).toEqual({ error: 'not_found', detail: 'there is nothing at this path' });
  });

  it("maps the framework's own errors to contract codes", () => {
    expect(sut.toBody(new NotFoundException()).error).toBe('not_found');
    expect(sut.toBody(new PayloadTooLargeException()).error).toBe('payload_too_large');
    expect(sut.toBody(new BadRequestException(['name must be a string']))).toEqual({ error: 'invalid_request', detail: 'name must be a string' });
  });

  it('hides what is unexpected behind internal_error', () => {
    expect(sut.toBody(new Error('connection string postgres://secret@db leaked'))).toEqual({ error: 'internal_error', detail: 'unexpected error' });
    expect(sut.toBody(new HttpException('teapot', 418))).toEqual({ error: 'internal_error', detail: 'unexpected error' });
  });
});
