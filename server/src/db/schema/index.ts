export * from './accounts';
export * from './missions';
export * from './work';
export * from './money';
export * from './operations';
export * from './appointments';
export * from './devices';
export * from './visit-reports';
