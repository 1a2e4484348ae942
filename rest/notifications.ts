import { route, type Route } from '../src/http/route.js';

export const notificationRoutes: Route[] = [
  route('GET', '/notifications', 'notifications_list', { summary: 'Notification tray (unread first)' }),
  route('POST', '/notifications/read', 'notifications_mark_read', { summary: 'Mark notifications read' }),
  route('DELETE', '/notifications/{id}', 'notifications_delete', { summary: 'Delete a notification' }),
];
