export * from './api';
export * from './hierarchy';
export * from './job-categories';
export * from './schemas';
