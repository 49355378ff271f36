import type { AdminTab, TechnicianTab } from '@maillon/common/enums';

/** Every app path in one typed object. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  /** The site contact's page behind the e-mailed link (issue 19). */
  siteVisit: { path: '/rdv/:token', getHref: (token: string) => `/rdv/${token}` },
  technician: {
    login: { path: '/technician/login', getHref: () => '/technician/login' },
    register: { path: '/technician/register', getHref: () => '/technician/register' },
    resetPassword: { path: '/technician/reset-password', getHref: () => '/technician/reset-password' },
    dashboard: {
      path: '/technician/dashboard',
      getHref: (params: { tab?: TechnicianTab | string; search?: string } = {}) => {
        const query = new URLSearchParams();
        if (params.tab) query.set('tab', params.tab);
        if (params.search) query.set('search', params.search);
        const text = query.toString();
        return `/technician/dashboard${text ? `?${text}` : ''}`;
      },
    },
    /** The visit report of one device of a Recruté lot, full screen (issue 16). */
    visitReport: {
      path: '/technician/visits/:missionId/report',
      getHref: (missionId: string) => `/technician/visits/${encodeURIComponent(missionId)}/report`,
    },
  },
  admin: {
    login: { path: '/admin/login', getHref: () => '/admin/login' },
    dashboard: {
      path: '/admin/dashboard',
      getHref: (params: { tab?: AdminTab | string; batchId?: string } = {}) => {
        const query = new URLSearchParams();
        if (params.tab) query.set('tab', params.tab);
        if (params.batchId) query.set('batchId', params.batchId);
        const text = query.toString();
        return `/admin/dashboard${text ? `?${text}` : ''}`;
      },
    },
  },
} as const;

/** Addresses that open each dashboard (the bare area prefix leads there too). */
export const TECHNICIAN_DASHBOARD_PATHS: readonly string[] = ['/technician', paths.technician.dashboard.path];
export const ADMIN_DASHBOARD_PATHS: readonly string[] = ['/admin', paths.admin.dashboard.path];
