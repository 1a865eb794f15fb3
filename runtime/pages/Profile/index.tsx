// Profile: read-only account, name, mobile, email and avatar from the session; the user's own second factor.
import { UserOutlined } from '@ant-design/icons';
import { Avatar, Card, Descriptions } from 'antd';
import { useSession } from '../../core/session';
import { TwoFactor } from './TwoFactor';

export default function Profile() {
  const { user } = useSession();
  return (
    <>
      <Card title="个人信息" style={{ maxWidth: 720 }}>
        <div style={{ textAlign: 'center', marginBottom: 16 }}>
          <Avatar size={96} src={user?.avatar || undefined} icon={<UserOutlined />} alt="头像" />
        </div>
        <Descriptions column={1} bordered size="middle" labelStyle={{ width: 140 }}>
          <Descriptions.Item label="账号">{user?.username}</Descriptions.Item>
          <Descriptions.Item label="姓名">{user?.nickName || '-'}</Descriptions.Item>
          <Descriptions.Item label="手机号码">{user?.phoneNumber || '-'}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{user?.email || '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <TwoFactor />
    </>
  );
}
