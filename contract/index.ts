export * from './answers';
export * from './api';
export * from './endpoints';
export * from './events';
export * from './hierarchy';
export * from './job-categories';
export * from './schemas';
export * from './record-fields';
