/**
 * What every command shares (finding the cluster, reading flags), apart from the commands themselves, so
 * {@code io.basalt.app} and {@code io.basalt.app.topology} both depend on it and not on each other.
 */
package io.basalt.app.cli;
