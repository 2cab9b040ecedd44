import { Module } from '@nestjs/common';
import { ClientDirectory } from './client-directory.js';

@Module({ providers: [ClientDirectory], exports: [ClientDirectory] })
export class SharedModule {}
