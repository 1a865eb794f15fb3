// The icons a menu may name (icons.ts looks them up here by name): a fixed set, re-exported one by one so the
// bundle keeps only these (the full icon package is megabytes). Add a name here when a menu needs a new one.
export {
  ApiOutlined, AppstoreAddOutlined, AppstoreOutlined, BarChartOutlined, BookOutlined, BulbOutlined, CloudServerOutlined,
  CloudSyncOutlined, CloudUploadOutlined, ClusterOutlined, CodeOutlined, ControlOutlined, DashboardOutlined, DatabaseOutlined,
  DeploymentUnitOutlined, FileSearchOutlined, FileTextOutlined, FolderOutlined, FormOutlined, FunctionOutlined, HddOutlined,
  HomeOutlined, LinkOutlined, MessageOutlined, MonitorOutlined, PictureOutlined, ProfileOutlined, QuestionCircleOutlined,
  RobotOutlined, SafetyOutlined, SearchOutlined, SettingOutlined, TableOutlined, TeamOutlined, ToolOutlined, UserOutlined,
  AuditOutlined, FundOutlined, LayoutOutlined, SendOutlined, FieldTimeOutlined, CheckCircleOutlined, BuildOutlined, KeyOutlined, DeleteOutlined, SafetyCertificateOutlined,
} from '@ant-design/icons';
