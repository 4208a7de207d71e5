"""to_llvm"""
