// The frame of every page but the login page: antd's App context (message, modal and notification that
// follow the theme, used by App.useApp() in the pages) wired to the request layer. Loaded with the first
// page behind the login, so the login page does not carry it.
import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { setFeedback } from '../core/feedback';

function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => setFeedback({ message, modal }), [message, modal]);
  return null;
}

export function AppFrame() {
  return (
    <AntApp>
      <FeedbackBridge />
      <Outlet />
    </AntApp>
  );
}
