export declare const isAdminRoute: (id: string) => boolean;
export declare function technicianAreaFiles(
  manifest: Record<string, { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[]; assets?: string[] }>,
  modules?: Record<string, string[]>,
  isSkipped?: (id: string) => boolean,
): Set<string>;
export declare function precachedUrls(serviceWorkerCode: string): string[];
