/**
 * The commit of the last version that landed (passed CI and was taken): the upgrade test
 * makes a data folder with it. Move it forward to the new commit when a version lands.
 */
export const LANDED = '9aa30f24b7ba3399a62f6972f526be2a2b1a6067';
