// Menu icons by name. A fixed set keeps the bundle small (the full icon package is megabytes);
// add a name here when a menu needs a new one. Unknown names fall back to AppstoreOutlined.
import { createElement, type ComponentType } from 'react';
import {
  ApiOutlined, AppstoreAddOutlined, AppstoreOutlined, BarChartOutlined, BookOutlined, BulbOutlined, CloudServerOutlined,
  CloudSyncOutlined, CloudUploadOutlined, ClusterOutlined, CodeOutlined, ControlOutlined, DashboardOutlined, DatabaseOutlined,
  DeploymentUnitOutlined, FileSearchOutlined, FileTextOutlined, FolderOutlined, FormOutlined, FunctionOutlined, HddOutlined,
  HomeOutlined, LinkOutlined, MessageOutlined, MonitorOutlined, PictureOutlined, ProfileOutlined, QuestionCircleOutlined,
  RobotOutlined, SafetyOutlined, SearchOutlined, SettingOutlined, TableOutlined, TeamOutlined, ToolOutlined, UserOutlined,
  AuditOutlined, FundOutlined, LayoutOutlined, SendOutlined, CheckCircleOutlined, BuildOutlined, KeyOutlined,
} from '@ant-design/icons';

const icons: Record<string, ComponentType> = {
  ApiOutlined, AppstoreAddOutlined, AppstoreOutlined, BarChartOutlined, BookOutlined, BulbOutlined, CloudServerOutlined,
  CloudSyncOutlined, CloudUploadOutlined, ClusterOutlined, CodeOutlined, ControlOutlined, DashboardOutlined, DatabaseOutlined,
  DeploymentUnitOutlined, FileSearchOutlined, FileTextOutlined, FolderOutlined, FormOutlined, FunctionOutlined, HddOutlined,
  HomeOutlined, LinkOutlined, MessageOutlined, MonitorOutlined, PictureOutlined, ProfileOutlined, QuestionCircleOutlined,
  RobotOutlined, SafetyOutlined, SearchOutlined, SettingOutlined, TableOutlined, TeamOutlined, ToolOutlined, UserOutlined,
  AuditOutlined, FundOutlined, LayoutOutlined, SendOutlined, CheckCircleOutlined, BuildOutlined, KeyOutlined,
};

export function menuIcon(name?: string) {
  if (!name) return undefined;
  return createElement(icons[name] ?? AppstoreOutlined);
}
