import { Module } from '@nestjs/common';
import { ClientAccess } from './client-access.js';
import { ClientDirectory } from './client-directory.js';

@Module({ providers: [ClientDirectory, ClientAccess], exports: [ClientDirectory, ClientAccess] })
export class SharedModule {}
