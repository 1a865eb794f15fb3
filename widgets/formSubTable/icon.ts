// The kind's icon in the template list (its declaration names it: catalogue.icon).
export { TableOutlined as default } from '@ant-design/icons';
