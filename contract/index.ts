export * from './api';
export * from './events';
export * from './hierarchy';
export * from './job-categories';
export * from './schemas';
export * from './record-fields';
