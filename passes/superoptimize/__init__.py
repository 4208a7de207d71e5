"""superoptimize"""
