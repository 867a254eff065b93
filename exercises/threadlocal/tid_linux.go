package threadlocal

import "syscall"

// threadID returns the id of the OS thread running the caller right now.
func threadID() int { return syscall.Gettid() }
